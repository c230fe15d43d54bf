import { RolesScreen } from './RolesScreen';

/** `orgRoleManagement`: roles of the department in `?departmentId=`, opened from the organisation tree. */
export default function OrgRoleManagementPage() {
  return <RolesScreen titleKey="menu.orgRoleManagement" />;
}
