import type {
  BuyCreditsRequest,
  OrderView,
  PageServiceListRequest,
  PayByTransferRequest,
  PaymentOptionsView,
  PayOnlineView,
} from '@coldchain/contract';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { request } from '../../../api/request';

/** The orders list and payment calls (docs/API.md "Billing"). */
export const PAYMENT_PATHS = {
  pageServiceList: '/api/order/pageServiceList',
  paymentOptions: '/api/order/paymentOptions',
  buyCredits: '/api/order/buyCredits',
  payByTransfer: '/api/order/payByTransfer',
  payOnline: '/api/order/payOnline',
  cancel: '/api/order/cancelServiceOrder',
} as const;

export interface ServiceOrderPage {
  list: OrderView[];
  total: number;
  pageNum: number;
  pageSize: number;
}

export function useServiceList(body: PageServiceListRequest) {
  return useQuery({
    queryKey: ['billing', 'serviceList', body],
    queryFn: () => request<ServiceOrderPage>(PAYMENT_PATHS.pageServiceList, body),
    placeholderData: keepPreviousData,
  });
}

export function usePaymentOptions() {
  return useQuery({
    queryKey: ['billing', 'paymentOptions'],
    queryFn: () => request<PaymentOptionsView>(PAYMENT_PATHS.paymentOptions),
  });
}

/** Every change here moves orders, the balance or the ledger: all of billing is read again. */
function useBillingMutation<Body, Result>(path: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: Body) => request<Result>(path, body),
    onSuccess: () => client.invalidateQueries({ queryKey: ['billing'] }),
  });
}

export const useBuyCredits = () =>
  useBillingMutation<BuyCreditsRequest, { id: string; orderNo: string }>(PAYMENT_PATHS.buyCredits);
export const usePayByTransfer = () =>
  useBillingMutation<PayByTransferRequest, { id: string }>(PAYMENT_PATHS.payByTransfer);
export const usePayOnline = () => useBillingMutation<{ id: string }, PayOnlineView>(PAYMENT_PATHS.payOnline);
export const useCancelServiceOrder = () => useBillingMutation<{ id: string }, unknown>(PAYMENT_PATHS.cancel);
