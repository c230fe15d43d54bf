import type {
  MonitoringDevicePayRequest,
  MonitoringDeviceRecoveryRequest,
  OrderView,
  PageOrdersRequest,
  PriceListView,
  ServiceLapsesView,
} from '@coldchain/contract';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { request } from '../../api/request';
import type { DevicePage } from '../devices/queries';

/** Renewal and data recovery calls of docs/API.md. */
export const BILLING_PATHS = {
  priceList: '/api/order/priceList',
  pay: '/api/device/monitoringDevicePay',
  recovery: '/api/device/monitoringDeviceRecovery',
  pageOrders: '/api/order/pageOrders',
  cancelOrder: '/api/order/cancelOrder',
  serviceLapses: '/api/device/serviceLapses',
} as const;

export interface OrderPage {
  list: OrderView[];
  total: number;
  pageNum: number;
  pageSize: number;
}

export function usePriceList() {
  return useQuery({
    queryKey: ['billing', 'prices'],
    queryFn: () => request<PriceListView>(BILLING_PATHS.priceList),
  });
}

/** The devices a picker offers: the first 200 the caller sees (the server caps a page at 200). */
export function useDeviceOptions() {
  return useQuery({
    queryKey: ['devices', 'page', { pageNum: 1, pageSize: 200 }],
    queryFn: () => request<DevicePage>('/api/device/pageDevices', { pageNum: 1, pageSize: 200 }),
  });
}

/** A device's lapsed service periods and how far each is recovered (none while no device is given). */
export function useServiceLapses(deviceId: string | undefined) {
  return useQuery({
    queryKey: ['billing', 'serviceLapses', deviceId],
    queryFn: () => request<ServiceLapsesView>(BILLING_PATHS.serviceLapses, { deviceId }),
    enabled: deviceId !== undefined,
  });
}

export function useOrders(body: PageOrdersRequest) {
  return useQuery({
    queryKey: ['billing', 'orders', body],
    queryFn: () => request<OrderPage>(BILLING_PATHS.pageOrders, body),
    placeholderData: keepPreviousData,
  });
}

function useOrderMutation<T>(path: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: T) => request<OrderView>(path, body),
    onSuccess: () => client.invalidateQueries({ queryKey: ['billing', 'orders'] }),
  });
}

export const usePlaceRenewal = () => useOrderMutation<MonitoringDevicePayRequest>(BILLING_PATHS.pay);
export const usePlaceRecovery = () =>
  useOrderMutation<MonitoringDeviceRecoveryRequest>(BILLING_PATHS.recovery);
export const useCancelOrder = () => useOrderMutation<{ id: string }>(BILLING_PATHS.cancelOrder);
