/**
 * The text of an alarm message per channel, in the recipient's language (`users.language`, kept
 * from the `language` header of their calls).
 */
export interface AlarmMessageInput {
  content: { cn: string; en: string };
  level: number;
  sequence: number;
  alarmTime: Date;
  /**
   * Found in data that arrived late (back-filled readings): how long after the reading it was
   * found. Null or absent for a live alarm. Told in every text so nobody takes it for a live one.
   */
  lateBySeconds?: number | null;
}

const levelName = {
  en: (level: number) => `level ${level}`,
  cn: (level: number) => `${level}级`,
};

/** A delay as people say it: "2 h 5 min", "45 s"; "2小时5分钟", "45秒". */
export function delayText(seconds: number, language: 'en' | 'cn'): string {
  const h = Math.floor(seconds / 3600);
  const m = Math.floor((seconds % 3600) / 60);
  const s = seconds % 60;
  const [hu, mu, su] = language === 'cn' ? ['小时', '分钟', '秒'] : [' h', ' min', ' s'];
  const parts = [h > 0 ? `${h}${hu}` : '', m > 0 ? `${m}${mu}` : '', h === 0 && m === 0 ? `${s}${su}` : ''];
  return parts.filter(Boolean).join(language === 'cn' ? '' : ' ');
}

const isLate = (input: AlarmMessageInput) => (input.lateBySeconds ?? 0) > 0;

/** "Found in data received late" with the delay, or nothing for a live alarm. */
export function lateNote(input: AlarmMessageInput, language: 'en' | 'cn'): string {
  if (!isLate(input)) return '';
  const delay = delayText(input.lateBySeconds!, language);
  return language === 'cn'
    ? `在延迟接收的数据中发现（晚到${delay}）`
    : `Found in data received late (${delay} late)`;
}

export function alarmSubject(input: AlarmMessageInput, language: 'en' | 'cn'): string {
  const repeat = input.sequence > 1;
  const late = isLate(input);
  return language === 'cn'
    ? `【ColdChain】${late ? '延迟数据中的' : ''}${repeat ? '重复' : ''}报警（${levelName.cn(input.level)}）`
    : `[ColdChain] ${late ? 'Late data: ' : ''}${repeat ? 'Repeated alarm' : 'Alarm'} (${levelName.en(input.level)})`;
}

/** SMS, WhatsApp and spoken text: short, the alarm content first (after the late mark, if any). */
export function alarmShortText(input: AlarmMessageInput, language: 'en' | 'cn'): string {
  const note = lateNote(input, language);
  return language === 'cn'
    ? `【ColdChain】${note ? `${note}：` : ''}${input.content.cn}`
    : `[ColdChain] ${note ? `${note}: ` : ''}${input.content.en}`;
}

export function alarmEmailText(input: AlarmMessageInput, language: 'en' | 'cn'): string {
  const time = input.alarmTime.toISOString().replace('T', ' ').slice(0, 19);
  const note = lateNote(input, language);
  if (language === 'cn') {
    const late = note ? `\n${note}：该报警不是实时发现的，报警时间是读数的时间。` : '';
    return `${input.content.cn}\n\n报警时间：${time} (UTC)${late}\n报警等级：${levelName.cn(input.level)}\n\n请登录 ColdChain 控制台处理该报警。`;
  }
  const late = note ? `\n${note}: not found live; the alarm time is the time of the reading.` : '';
  return `${input.content.en}\n\nAlarm time: ${time} (UTC)${late}\nLevel: ${input.level}\n\nPlease sign in to the ColdChain console to handle this alarm.`;
}

/** HTML-escapes text for a mail body. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/** A plain-text message as HTML paragraphs, line breaks kept. */
export function plainTextHtml(text: string): string {
  return text
    .split(/\n{2,}/)
    .map((paragraph) => `<p>${escapeHtml(paragraph).replace(/\n/g, '<br>')}</p>`)
    .join('\n');
}
