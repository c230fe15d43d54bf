import { sql } from 'drizzle-orm';
import type { FastifyPluginAsync } from 'fastify';
import { queryRows } from '../../db/client';
import { AppError } from '../../lib/app-error';
import { alarmRecords } from '../alarms/alarms.table';
import type { AlarmEmailExtra } from '../delivery/delivery-worker';
import { escapeHtml } from '../delivery/templates';
import { equipmentSensors } from '../equipment/equipment.table';
import { firstAlarmPicture } from './alarm-snapshots';
import { cameraDevices, cameraEquipment } from './camera.table';
import type { CameraDeps } from './camera-context';

const PURPOSE = 'alarm-picture:';

/**
 * The alarm e-mail goes out as soon as the alarm commits, while the camera may still be taking
 * the picture: the mail carries a link that shows the picture once it is there. The link's token
 * is the alarm id sealed with the installation's secret box, so only the mail's readers have it
 * and nobody can make one for another alarm.
 */
export function alarmPictureToken(deps: CameraDeps, alarmId: number): string {
  return deps.box.seal(`${PURPOSE}${alarmId}`);
}

function alarmOfToken(deps: CameraDeps, token: string): number | null {
  try {
    const text = deps.box.open(token);
    return text.startsWith(PURPOSE) ? Number(text.slice(PURPOSE.length)) || null : null;
  } catch {
    return null;
  }
}

/** Whether any camera watches the alarm's monitor or the equipment of its sensor (one statement). */
async function isWatched(deps: CameraDeps, alarmId: number): Promise<boolean> {
  const [row] = await queryRows<{ watched: boolean }>(
    deps.db,
    sql`select exists (select 1 from ${alarmRecords} a where a.id = ${alarmId} and (
      exists (select 1 from ${cameraDevices} cd where cd.device_id = a.device_id)
      or exists (select 1 from ${cameraEquipment} ce join ${equipmentSensors} es on es.equipment_id = ce.equipment_id
        where es.sensor_id = a.sensor_id))) as watched`,
  );
  return Boolean(row?.watched);
}

/**
 * The e-mail's picture, in the recipient's language; null when no camera watches the alarm. The
 * text carries the link; the HTML shows the picture itself, loaded by the mail client when the
 * mail is opened (by then the camera has answered), and links to it for clients that block images.
 */
export function alarmEmailPictureLine(deps: CameraDeps, baseUrl: string) {
  return async (alarmId: number, language: 'en' | 'cn'): Promise<AlarmEmailExtra | null> => {
    if (!(await isWatched(deps, alarmId))) return null;
    const url = `${baseUrl}/api/camera/alarmPicture/${alarmPictureToken(deps, alarmId)}`;
    const label = language === 'cn' ? '摄像头画面' : 'Camera picture';
    const open = language === 'cn' ? '打开画面' : 'Open the picture';
    const href = escapeHtml(url);
    return {
      text: `${label}${language === 'cn' ? '：' : ': '}${url}`,
      html: `<p><strong>${label}</strong><br><a href="${href}"><img src="${href}" alt="${label}" width="640" style="max-width:100%;height:auto"></a><br><a href="${href}">${open}</a></p>`,
    };
  };
}

/** The link's target: the alarm's first picture, or 404 while it is being taken or when none came. */
export const alarmPictureRoutes: FastifyPluginAsync<{ deps: CameraDeps }> = async (app, { deps }) => {
  app.get<{ Params: { token: string } }>(
    '/api/camera/alarmPicture/:token',
    { config: { public: true } },
    async (request, reply) => {
      const alarmId = alarmOfToken(deps, request.params.token);
      const picture = alarmId ? await firstAlarmPicture(deps, alarmId) : null;
      if (!picture) throw new AppError('NOT_FOUND', {}, 404);
      return reply.redirect(picture, 302);
    },
  );
};
