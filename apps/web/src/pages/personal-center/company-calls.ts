import type { ChangeOrganizeNameRequest } from '@coldchain/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useNavigate } from 'react-router';
import { fetchUserCompanies } from '../../api/calls';
import { request } from '../../api/request';
import { switchCompany } from '../../session/actions';
import { QueryKey } from '../../session/queries';
import { clearCompanyId, getCompanyId } from '../../session/storage';

/** The company calls of spec section 7 ("userOrganizeInfo … dropOutOrganize, changeOrganizeName"). */
export const COMPANY_PATHS = {
  edit: '/api/user/changeOrganizeName',
  leave: '/api/user/dropOutOrganize',
} as const;

/** Renames the company in scope and edits its industry and location; the session list follows. */
export function useEditCompany() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: ChangeOrganizeNameRequest) => request<null>(COMPANY_PATHS.edit, body),
    // The name is in the header's company selector and the org tree's root department.
    onSuccess: () => client.invalidateQueries({ queryKey: ['session'] }),
  });
}

/**
 * Leaves a company. Leaving the one in scope moves the console to another of the user's
 * companies, or to "join or create a company" when none is left, as a new user would see.
 */
export function useLeaveCompany() {
  const client = useQueryClient();
  const navigate = useNavigate();
  return useMutation({
    mutationFn: (id: string) => request<null>(COMPANY_PATHS.leave, { id }),
    onSuccess: async (_, id) => {
      if (id !== getCompanyId()) {
        await client.invalidateQueries({ queryKey: QueryKey.companies });
        return;
      }
      const remaining = await fetchUserCompanies();
      client.setQueryData(QueryKey.companies, remaining);
      // The server moved the caller's current company (its oldest other membership); follow it.
      const next = remaining.find((c) => c.current) ?? remaining[0];
      if (next) {
        await switchCompany(client, next.id);
        navigate('/home');
      } else {
        clearCompanyId();
        client.removeQueries({ predicate: (query) => query.queryKey[0] !== 'session' });
        navigate('/addTeam');
      }
    },
  });
}
