import type {
  IssueInvoiceRequest,
  OperatorInvoiceView,
  OperatorPageInvoicesRequest,
  RejectWithReasonRequest,
} from '@coldchain/contract';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { request } from '../../../api/request';

export const OPERATOR_INVOICE_PATHS = {
  page: '/api/operator/invoice/pageInvoices',
  issue: '/api/operator/invoice/issueInvoice',
  reject: '/api/operator/invoice/rejectInvoice',
} as const;

export interface OperatorInvoicePage {
  list: OperatorInvoiceView[];
  total: number;
  pageNum: number;
  pageSize: number;
}

export function useOperatorInvoices(body: OperatorPageInvoicesRequest) {
  return useQuery({
    queryKey: ['operator', 'invoices', body],
    queryFn: () => request<OperatorInvoicePage>(OPERATOR_INVOICE_PATHS.page, body),
    placeholderData: keepPreviousData,
  });
}

function useOperatorMutation<Body>(path: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: Body) => request(path, body),
    onSuccess: () => client.invalidateQueries({ queryKey: ['operator'] }),
  });
}
export const useIssueInvoice = () => useOperatorMutation<IssueInvoiceRequest>(OPERATOR_INVOICE_PATHS.issue);
export const useRejectInvoice = () =>
  useOperatorMutation<RejectWithReasonRequest>(OPERATOR_INVOICE_PATHS.reject);
