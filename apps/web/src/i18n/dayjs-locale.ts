import type { Locale } from '@coldchain/contract';
import dayjs from 'dayjs';
import 'dayjs/locale/zh-cn';

/** Dates (antd's pickers, formatted times) follow the interface language; loaded with the catalogue. */
export function setDayjsLocale(locale: Locale): void {
  dayjs.locale(locale === 'zh-CN' ? 'zh-cn' : 'en');
}
