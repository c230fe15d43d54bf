import { useQuery } from '@tanstack/react-query';
import { loadSwaggerUi } from './swagger-ui-loader';

/** The server's OpenAPI 3.1 document (apps/server/src/plugins/openapi-document.ts); public. */
export const OPENAPI_DOCUMENT_URL = '/open/v1/openapi.json';

/** The tag of the open-API operations (openapi-document.ts `tagOf`): listed first and expanded. */
export const OPEN_API_TAG = 'Open API';

/**
 * The document, fetched by the console rather than by Swagger UI: the page then shows its own
 * loading and error states in the user's language, and Swagger UI makes no request of its own.
 */
export function useOpenApiDocument() {
  return useQuery({
    queryKey: ['openApi', 'document'],
    queryFn: async () => {
      const response = await fetch(OPENAPI_DOCUMENT_URL, { headers: { Accept: 'application/json' } });
      if (!response.ok) throw new Error(`HTTP ${response.status}`);
      return (await response.json()) as Record<string, unknown>;
    },
    retry: false,
    staleTime: 5 * 60_000,
  });
}

/** Swagger UI's bundle and stylesheet, downloaded once per visit when the document is first shown. */
export function useSwaggerUi() {
  return useQuery({
    queryKey: ['openApi', 'swaggerUi'],
    // Wrapped in an object: the cache would otherwise hold the bundle function itself as "data".
    queryFn: async () => ({ render: await loadSwaggerUi() }),
    retry: false,
    staleTime: Number.POSITIVE_INFINITY,
    gcTime: Number.POSITIVE_INFINITY,
  });
}
