import type {
  GrantCreditsRequest,
  InventoryCsvPreview,
  InventoryImportResult,
  InventoryRowView,
  OperatorCompanyView,
  OperatorFeedbackView,
  Page,
  PageInventoryRequest,
  PageOperatorCompaniesRequest,
  SetCompanyDisabledRequest,
  SetCompanyServicesRequest,
  SupportDeviceView,
} from '@coldchain/contract';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { request } from '../../api/request';

/** The operator console's calls (API.md "Operator console"; server modules/operator). */
export const OPERATOR_PATHS = {
  pageCompanies: '/api/operator/pageCompanies',
  setServices: '/api/operator/setServices',
  grantCredits: '/api/operator/grantCredits',
  setCompanyDisabled: '/api/operator/setCompanyDisabled',
  previewInventory: '/api/operator/previewInventory',
  importInventory: '/api/operator/importInventory',
  pageInventory: '/api/operator/pageInventory',
  pageFeedback: '/api/operator/pageFeedback',
  pageSupportDevices: '/api/operator/pageSupportDevices',
} as const;

const OperatorKey = {
  companies: ['operator', 'companies'],
  inventory: ['operator', 'inventory'],
  feedback: ['operator', 'feedback'],
} as const;

export function useOperatorCompanies(body: PageOperatorCompaniesRequest) {
  return useQuery({
    queryKey: [...OperatorKey.companies, body],
    queryFn: () => request<Page<OperatorCompanyView>>(OPERATOR_PATHS.pageCompanies, body),
    placeholderData: keepPreviousData,
    retry: false,
  });
}

/** A change to one company: the answer is the company as it is now, and the list is refreshed. */
function useCompanyChange<Body>(path: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: Body) => request<OperatorCompanyView>(path, body),
    onSuccess: () => client.invalidateQueries({ queryKey: OperatorKey.companies }),
  });
}

export const useSetServices = () => useCompanyChange<SetCompanyServicesRequest>(OPERATOR_PATHS.setServices);
export const useGrantCredits = () => useCompanyChange<GrantCreditsRequest>(OPERATOR_PATHS.grantCredits);
export const useSetCompanyDisabled = () =>
  useCompanyChange<SetCompanyDisabledRequest>(OPERATOR_PATHS.setCompanyDisabled);

export function usePreviewInventory() {
  return useMutation({
    mutationFn: (csv: string) => request<InventoryCsvPreview>(OPERATOR_PATHS.previewInventory, { csv }),
  });
}

export function useImportInventory() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (csv: string) => request<InventoryImportResult>(OPERATOR_PATHS.importInventory, { csv }),
    onSuccess: () => client.invalidateQueries({ queryKey: OperatorKey.inventory }),
  });
}

export function useInventory(body: PageInventoryRequest) {
  return useQuery({
    queryKey: [...OperatorKey.inventory, body],
    queryFn: () => request<Page<InventoryRowView>>(OPERATOR_PATHS.pageInventory, body),
    placeholderData: keepPreviousData,
    retry: false,
  });
}

export function useOperatorFeedback(pageNum: number, pageSize: number) {
  return useQuery({
    queryKey: [...OperatorKey.feedback, pageNum],
    queryFn: () => request<Page<OperatorFeedbackView>>(OPERATOR_PATHS.pageFeedback, { pageNum, pageSize }),
    placeholderData: keepPreviousData,
    retry: false,
  });
}

/** A company's devices while it grants support access (read-only; each look is in its log). */
export function useSupportDevices(companyId: string, pageNum: number, pageSize: number) {
  return useQuery({
    queryKey: ['operator', 'supportDevices', companyId, pageNum],
    queryFn: () =>
      request<Page<SupportDeviceView>>(OPERATOR_PATHS.pageSupportDevices, {
        id: companyId,
        pageNum,
        pageSize,
      }),
    placeholderData: keepPreviousData,
    retry: false,
  });
}
