import type {
  ApplyInvoiceRequest,
  InvoiceableOrderView,
  InvoiceView,
  PageInvoicesRequest,
} from '@coldchain/contract';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { type FileResponse, request } from '../../../api/request';

/** Invoice application calls (docs/API.md "Billing"). */
export const INVOICE_PATHS = {
  page: '/api/invoice/pageInvoices',
  invoiceable: '/api/invoice/invoiceableOrders',
  apply: '/api/invoice/applyInvoice',
  cancel: '/api/invoice/cancelInvoice',
  download: '/api/invoice/downloadInvoice',
} as const;

export interface InvoicePage {
  list: InvoiceView[];
  total: number;
  pageNum: number;
  pageSize: number;
}

export function useInvoices(body: PageInvoicesRequest, enabled = true) {
  return useQuery({
    queryKey: ['billing', 'invoices', body],
    queryFn: () => request<InvoicePage>(INVOICE_PATHS.page, body),
    placeholderData: keepPreviousData,
    enabled,
  });
}

export function useInvoiceableOrders(enabled: boolean) {
  return useQuery({
    queryKey: ['billing', 'invoiceable'],
    queryFn: () => request<InvoiceableOrderView[]>(INVOICE_PATHS.invoiceable),
    enabled,
  });
}

export function useApplyInvoice() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: ApplyInvoiceRequest) => request<{ id: string }>(INVOICE_PATHS.apply, body),
    onSuccess: () => client.invalidateQueries({ queryKey: ['billing'] }),
  });
}

export function useCancelInvoice() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => request(INVOICE_PATHS.cancel, { id }),
    onSuccess: () => client.invalidateQueries({ queryKey: ['billing'] }),
  });
}

/** Hands the issued PDF to the browser under the server's file name. */
export async function downloadInvoice(id: string): Promise<void> {
  const file = await request<FileResponse>(INVOICE_PATHS.download, { id });
  const url = URL.createObjectURL(file.blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = file.filename || `invoice-${id}.pdf`;
  document.body.appendChild(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 0);
}
