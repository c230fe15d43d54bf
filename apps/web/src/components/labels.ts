import type { TFunction } from 'i18next';

/**
 * Values the server stores as words of its own (enums) or as English defaults it wrote itself,
 * turned into the reader's language in one place (issue 20: `mains`, `normal` and
 * "Temperature 1" showed in English on Chinese screens). A value the catalogue does not know is
 * shown as it is, so a newer server never blanks a screen; i18n.test.ts checks that every value
 * the contract defines has its text in both languages.
 */

/** `power` of a device: `mains` or `battery` (device protocol). */
export function powerLabel(t: TFunction, power: string | null | undefined): string {
  if (!power) return '-';
  return t(`devices.power.${power}`, { defaultValue: power });
}

/** `mode` of a device: `normal`, `loading`, `defrost`, `service` (device protocol). */
export function modeLabel(t: TFunction, mode: string | null | undefined): string {
  if (!mode) return '-';
  return t(`devices.mode.${mode}`, { defaultValue: mode });
}

/** A sensor type (`temperature`, `humidity`). */
export function sensorTypeLabel(t: TFunction, type: string): string {
  return t(`devices.sensorType.${type}`, { defaultValue: type });
}

/**
 * The server names new channels "Temperature 1", "Humidity 2" (devices.service.ts) in English;
 * until someone renames a channel, that default is shown in the reader's language. A name a
 * person chose is theirs and stays as written.
 */
const DEFAULT_SENSOR_NAME = /^(Temperature|Humidity) (\d+)$/;

export function sensorName(t: TFunction, name: string | null | undefined): string {
  if (!name) return '-';
  const match = DEFAULT_SENSOR_NAME.exec(name);
  if (!match) return name;
  return t('devices.sensorDefaultName', {
    type: sensorTypeLabel(t, match[1]!.toLowerCase()),
    channel: match[2],
  });
}

/** The role every company starts with (company-setup.ts `ADMIN_ROLE_NAME`), until renamed. */
const DEFAULT_ADMIN_ROLE = 'Administrator';

export function roleName(t: TFunction, name: string | null | undefined): string {
  if (!name) return '';
  return name === DEFAULT_ADMIN_ROLE ? t('org.defaultAdminRole') : name;
}
