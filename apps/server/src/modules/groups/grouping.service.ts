import {
  type DeviceView,
  type GroupingDepartment,
  type GroupWithDevices,
  worstGroupState,
} from '@coldchain/contract';
import { and, asc, eq, inArray, type SQL } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { idToWire } from '../../lib/ids';
import type { Auth } from '../../plugins/auth';
import { presentDevice } from '../devices/devices.service';
import { devices, sensors } from '../devices/devices.table';
import { assertDepartmentInScope, departmentScope } from '../org/access';
import { departments } from '../org/org.table';
import { buildGroupTree, groupsInScope, rootDepartmentId, type StatesByGroup } from './groups.service';

/**
 * `/api/group/groupDevices` for the grouping mode: every department the caller may see (or one),
 * its group trees with the devices in each group and their latest values, and the devices that
 * are in no group. A device without a department counts as the company's (the root department);
 * a device granted to the caller from outside their departments brings its department along.
 */
export async function groupDevices(
  db: Db,
  auth: Auth,
  visible: SQL,
  departmentWireId: string | undefined,
): Promise<GroupingDepartment[]> {
  const only = await assertDepartmentInScope(db, auth, departmentWireId);
  const companyId = auth.companyId ?? -1;
  const rootId = await rootDepartmentId(db, companyId);

  const departmentOf = (d: { departmentId: number | null }) => d.departmentId ?? rootId;
  const deviceRows = await db
    .select()
    .from(devices)
    .where(visible)
    .orderBy(asc(devices.name), asc(devices.id));
  const rows = only ? deviceRows.filter((d) => departmentOf(d) === only) : deviceRows;
  const sensorRows = rows.length
    ? await db
        .select()
        .from(sensors)
        .where(
          inArray(
            sensors.deviceId,
            rows.map((d) => d.id),
          ),
        )
    : [];
  const views = new Map<number, DeviceView>();
  for (const d of rows)
    views.set(
      d.id,
      presentDevice(
        d,
        sensorRows.filter((s) => s.deviceId === d.id),
      ),
    );

  const scoped = await db
    .select({ id: departments.id, name: departments.name, path: departments.path })
    .from(departments)
    .where(and(departmentScope(auth), only ? eq(departments.id, only) : undefined));
  const known = new Set(scoped.map((d) => d.id));
  const extra = [...new Set(rows.map(departmentOf))].filter(
    (id): id is number => id !== null && !known.has(id),
  );
  const granted = extra.length
    ? await db
        .select({ id: departments.id, name: departments.name, path: departments.path })
        .from(departments)
        .where(and(eq(departments.companyId, companyId), inArray(departments.id, extra)))
    : [];
  const allDepartments = [...scoped, ...granted].sort((a, b) =>
    a.path.localeCompare(b.path, 'en', { numeric: true }),
  );

  const groups = await groupsInScope(db, auth, only);
  const groupIds = new Set(groups.map((g) => g.id));
  const states: StatesByGroup = new Map();
  const devicesByGroup = new Map<number, DeviceView[]>();
  for (const d of rows) {
    if (d.groupId === null || !groupIds.has(d.groupId)) continue;
    states.set(d.groupId, [...(states.get(d.groupId) ?? []), d.state]);
    devicesByGroup.set(d.groupId, [...(devicesByGroup.get(d.groupId) ?? []), views.get(d.id)!]);
  }

  return allDepartments.map((department) => {
    const own = rows.filter((d) => departmentOf(d) === department.id);
    const trees = buildGroupTree<GroupWithDevices>(
      groups.filter((g) => g.departmentId === department.id),
      states,
      (group, node) => ({ ...node, devices: devicesByGroup.get(group.id) ?? [], children: [] }),
    );
    return {
      id: idToWire(department.id),
      name: department.name,
      state: worstGroupState(own.map((d) => d.state)),
      groups: trees,
      devices: own.filter((d) => d.groupId === null || !groupIds.has(d.groupId)).map((d) => views.get(d.id)!),
    };
  });
}
