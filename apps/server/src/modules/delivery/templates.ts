/**
 * The text of an alarm message per channel, in the recipient's language (`users.language`, kept
 * from the `language` header of their calls).
 */
export interface AlarmMessageInput {
  content: { cn: string; en: string };
  level: number;
  sequence: number;
  alarmTime: Date;
}

const levelName = {
  en: (level: number) => `level ${level}`,
  cn: (level: number) => `${level}级`,
};

export function alarmSubject(input: AlarmMessageInput, language: 'en' | 'cn'): string {
  const repeat = input.sequence > 1;
  return language === 'cn'
    ? `【ColdChain】${repeat ? '重复' : ''}报警（${levelName.cn(input.level)}）`
    : `[ColdChain] ${repeat ? 'Repeated alarm' : 'Alarm'} (${levelName.en(input.level)})`;
}

/** SMS, WhatsApp and spoken text: short, the alarm content first. */
export function alarmShortText(input: AlarmMessageInput, language: 'en' | 'cn'): string {
  return language === 'cn' ? `【ColdChain】${input.content.cn}` : `[ColdChain] ${input.content.en}`;
}

export function alarmEmailText(input: AlarmMessageInput, language: 'en' | 'cn'): string {
  const time = input.alarmTime.toISOString().replace('T', ' ').slice(0, 19);
  return language === 'cn'
    ? `${input.content.cn}\n\n报警时间：${time} (UTC)\n报警等级：${levelName.cn(input.level)}\n\n请登录 ColdChain 控制台处理该报警。`
    : `${input.content.en}\n\nAlarm time: ${time} (UTC)\nLevel: ${input.level}\n\nPlease sign in to the ColdChain console to handle this alarm.`;
}
