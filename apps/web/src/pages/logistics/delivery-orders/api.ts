import type {
  DeliveryDetail,
  DeliveryListItem,
  Page,
  PageDeliveriesRequest,
  ReceiveDeliveryRequest,
  SaveDeliveryRequest,
  SendReceiptLinkRequest,
} from '@coldchain/contract';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { type FileResponse, request } from '../../../api/request';
import { saveFile } from '../../devices/batch/batch-queries';

/** The console's delivery and receiving order calls (API.md "Logistics"). */
export const DELIVERY_PATHS = {
  save: '/api/logistics/saveDelivery',
  page: '/api/logistics/pageDeliveries',
  receiving: '/api/logistics/pageReceiving',
  detail: '/api/logistics/deliveryDetail',
  depart: '/api/logistics/departDelivery',
  arrive: '/api/logistics/arriveDelivery',
  cancel: '/api/logistics/cancelDelivery',
  receive: '/api/logistics/receiveDelivery',
  sendLink: '/api/logistics/sendReceiptLink',
  note: '/api/logistics/deliveryNote',
  linkReceipt: '/api/logistics/linkReceipt',
  linkReceive: '/api/logistics/linkReceive',
  linkPhoto: '/api/logistics/linkPhoto',
  linkNote: '/api/logistics/linkDeliveryNote',
} as const;

const DeliveryKey = {
  all: ['logistics', 'deliveries'],
  page: (kind: string, body: object) => ['logistics', 'deliveries', kind, body],
  detail: (id: string) => ['logistics', 'deliveries', 'detail', id],
} as const;

export function useDeliveries(kind: 'page' | 'receiving', body: PageDeliveriesRequest) {
  return useQuery({
    queryKey: DeliveryKey.page(kind, body),
    queryFn: () => request<Page<DeliveryListItem>>(DELIVERY_PATHS[kind], body),
    placeholderData: keepPreviousData,
    retry: false,
  });
}

/** An order's detail; refreshed every minute while it travels, so the live readings move. */
export function useDeliveryDetail(id: string | null) {
  return useQuery({
    queryKey: DeliveryKey.detail(id ?? ''),
    queryFn: () => request<DeliveryDetail>(DELIVERY_PATHS.detail, { id }),
    enabled: id !== null,
    refetchInterval: (query) => (query.state.data?.state === 2 ? 60_000 : false),
    retry: false,
  });
}

function useChange<T, R>(send: (body: T) => Promise<R>) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: send,
    onSuccess: () => client.invalidateQueries({ queryKey: DeliveryKey.all }),
  });
}

export const useSaveDelivery = () =>
  useChange((body: SaveDeliveryRequest) =>
    request<{ id: string; orderNo: string }>(DELIVERY_PATHS.save, body),
  );

export type DeliveryStep = 'depart' | 'arrive' | 'cancel';
export const useDeliveryStep = () =>
  useChange(({ step, id }: { step: DeliveryStep; id: string }) =>
    request<null>(DELIVERY_PATHS[step], { id }),
  );

export const useReceiveDelivery = () =>
  useChange((body: ReceiveDeliveryRequest) => request<null>(DELIVERY_PATHS.receive, body));

export const useSendReceiptLink = () =>
  useChange((body: SendReceiptLinkRequest) =>
    request<{ url: string; expireTime: number }>(DELIVERY_PATHS.sendLink, body),
  );

/** The browser's zone: the note prints times as the reader reads them here. */
export const browserZone = () => Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';

/** Downloads the delivery note (PDF) or its readings (xlsx), by order id or by receipt link token. */
export async function downloadNote(target: { id: string } | { token: string }, format: 'pdf' | 'xlsx') {
  const path = 'token' in target ? DELIVERY_PATHS.linkNote : DELIVERY_PATHS.note;
  const file = await request<FileResponse>(path, { ...target, format, timeZone: browserZone() });
  saveFile(file, `delivery-note.${format}`);
}
