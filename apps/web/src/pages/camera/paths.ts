/** The camera screens (packages/contract menus.ts: `camera`, `cameraDetail`, `cameraAttr`, `platformAccount`, `cameraScreen`). */
export const CAMERA_LIST_PATH = '/deviceManagement/camera';
export const CAMERA_DETAIL_PATH = '/deviceManagement/camera/cameraDetail';
export const CAMERA_ATTR_PATH = '/deviceManagement/camera/cameraAttr';
export const PLATFORM_ACCOUNT_PATH = '/deviceManagement/camera/platformAccount';
export const CAMERA_SCREEN_PATH = '/cameraScreen';

export const cameraDetailUrl = (id: string) => `${CAMERA_DETAIL_PATH}?id=${encodeURIComponent(id)}`;
/** `cameraAttr` edits the camera `id`, or adds one without it. */
export const cameraAttrUrl = (id?: string) =>
  id ? `${CAMERA_ATTR_PATH}?id=${encodeURIComponent(id)}` : CAMERA_ATTR_PATH;
