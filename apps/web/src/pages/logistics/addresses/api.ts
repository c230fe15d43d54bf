import type { AddressView, Page, PageAddressesRequest, SaveAddressRequest } from '@coldchain/contract';
import { MsgCode } from '@coldchain/contract';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { RequestError, request } from '../../../api/request';

/** The console's address calls (API.md "Logistics"). */
export const ADDRESS_PATHS = {
  save: '/api/logistics/saveAddress',
  page: '/api/logistics/pageAddresses',
  remove: '/api/logistics/deleteAddress',
} as const;

const AddressKey = {
  all: ['logistics', 'addresses'],
  page: (body: object) => ['logistics', 'addresses', body],
} as const;

export function useAddresses(body: PageAddressesRequest) {
  return useQuery({
    queryKey: AddressKey.page(body),
    queryFn: () => request<Page<AddressView>>(ADDRESS_PATHS.page, body),
    placeholderData: keepPreviousData,
    retry: false,
  });
}

export function useSaveAddress() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: SaveAddressRequest) => request<{ id: string }>(ADDRESS_PATHS.save, body),
    onSuccess: () => client.invalidateQueries({ queryKey: AddressKey.all }),
  });
}

export function useDeleteAddress() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => request<null>(ADDRESS_PATHS.remove, { id }),
    onSuccess: () => client.invalidateQueries({ queryKey: AddressKey.all }),
  });
}

/**
 * The server's refusal of the whole list (the logistics service is off, no permission), shown in
 * place of the table; null for transport faults, which get a retry.
 */
export function refusalOf(error: unknown): string | null {
  return error instanceof RequestError && error.msgCode === MsgCode.Failed && error.message
    ? error.message
    : null;
}
