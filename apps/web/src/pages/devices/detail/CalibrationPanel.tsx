import { lazy, Suspense } from 'react';

// Loaded after the rest of the detail: the table, date pickers and upload it needs are not what
// a person opening a monitor looks at first.
const CalibrationRecords = lazy(() => import('./CalibrationRecords'));

/** The "Calibration" part of the monitor detail (records, add, delete). */
export function CalibrationPanel({ deviceId, canEdit }: { deviceId: string; canEdit: boolean }) {
  return (
    <Suspense fallback={null}>
      <CalibrationRecords deviceId={deviceId} canEdit={canEdit} />
    </Suspense>
  );
}
