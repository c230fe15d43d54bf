import { Limits } from '@coldchain/contract';
import { useEffect, useState } from 'react';

export type DeviceType = 'desktop' | 'mobile';

export function deviceTypeFor(width: number): DeviceType {
  return width < Limits.mobileBreakpointPx ? 'mobile' : 'desktop';
}

/** Spec section 4: the device type is mobile below 992 px, re-evaluated on resize. */
export function useDeviceType(): DeviceType {
  const [type, setType] = useState<DeviceType>(() => deviceTypeFor(window.innerWidth));
  useEffect(() => {
    const onResize = () => setType(deviceTypeFor(window.innerWidth));
    window.addEventListener('resize', onResize);
    return () => window.removeEventListener('resize', onResize);
  }, []);
  return type;
}
