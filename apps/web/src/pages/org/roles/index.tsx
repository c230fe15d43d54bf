import { RolesScreen } from './RolesScreen';

/** `roleManagement`: roles of a department picked from the caller's tree. */
export default function RoleManagementPage() {
  return <RolesScreen titleKey="menu.roleManagement" />;
}
