/** Urls of the org pages (packages/contract/src/menus.ts). */
export const OrgUrl = {
  organization: '/user/organization',
  detail: (id: string) => `/user/organization/departmentDetail?id=${encodeURIComponent(id)}`,
  addSector: (parentId?: string) =>
    `/user/organization/addSector${parentId ? `?parentId=${encodeURIComponent(parentId)}` : ''}`,
  roles: (departmentId: string) =>
    `/user/organization/orgRoleManagement?departmentId=${encodeURIComponent(departmentId)}`,
  personnel: (departmentId: string) =>
    `/user/organization/sectorPersonnelManagement?departmentId=${encodeURIComponent(departmentId)}`,
} as const;
