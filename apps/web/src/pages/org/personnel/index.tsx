import { PersonnelScreen } from './PersonnelScreen';

/** `personnelManagement`: every member of the caller's scope. */
export default function PersonnelManagementPage() {
  return <PersonnelScreen titleKey="menu.personnelManagement" />;
}
