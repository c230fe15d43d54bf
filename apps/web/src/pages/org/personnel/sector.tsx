import { PersonnelScreen } from './PersonnelScreen';

/** `sectorPersonnelManagement`: members of the department in `?departmentId=`. */
export default function SectorPersonnelManagementPage() {
  return <PersonnelScreen titleKey="menu.sectorPersonnelManagement" />;
}
