import type {
  CreditBalanceView,
  CreditLedgerRowView,
  ExportCreditLedgerRequest,
  Page,
  PageCreditLedgerRequest,
} from '@coldchain/contract';
import { keepPreviousData, useMutation, useQuery } from '@tanstack/react-query';
import { type FileResponse, request } from '../../../api/request';

/** Message credit calls of docs/API.md ("Credits and the ledger"). */
export const CREDIT_PATHS = {
  balance: '/api/credit/balance',
  pageLedger: '/api/credit/pageLedger',
  exportLedger: '/api/credit/exportLedger',
} as const;

export function useCreditBalance() {
  return useQuery({
    queryKey: ['credits', 'balance'],
    queryFn: () => request<CreditBalanceView>(CREDIT_PATHS.balance),
  });
}

export function useCreditLedger(body: PageCreditLedgerRequest) {
  return useQuery({
    queryKey: ['credits', 'ledger', body],
    queryFn: () => request<Page<CreditLedgerRowView>>(CREDIT_PATHS.pageLedger, body),
    placeholderData: keepPreviousData,
  });
}

export function useExportLedger() {
  return useMutation({
    mutationFn: (body: ExportCreditLedgerRequest) => request<FileResponse>(CREDIT_PATHS.exportLedger, body),
  });
}
