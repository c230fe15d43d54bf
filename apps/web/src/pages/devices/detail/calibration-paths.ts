/** Calibration records of a monitor (spec section 3 "Records"); the certificate is uploaded first. */
export const CALIBRATION_PATHS = {
  page: '/api/device/pageCalibrations',
  add: '/api/device/addCalibration',
  remove: '/api/device/deleteCalibration',
  upload: '/api/file/upload',
} as const;
