import { Tag } from 'antd';
import { useTranslation } from 'react-i18next';
import { useUserInfo } from '../../session/queries';
import { LEVEL_COLORS, RESOLVE_COLORS } from './format';

export function ResolveStateTag({ state }: { state: number }) {
  const { t } = useTranslation();
  return (
    <Tag color={RESOLVE_COLORS[state] ?? 'default'} data-testid="alarm-resolve-state">
      {t(`alarms.resolveState.${state}`, { defaultValue: String(state) })}
    </Tag>
  );
}

export function LevelTag({ level }: { level: number }) {
  const { t } = useTranslation();
  return <Tag color={LEVEL_COLORS[level] ?? 'default'}>{t('alarms.level', { level })}</Tag>;
}

/**
 * The resolver's name: the server joins it as `resolverName`; without it (an older server) the
 * current user is named and anyone else is shown by id.
 */
export function ResolverName({ id, name }: { id: string | null; name?: string | null }) {
  const { t } = useTranslation();
  const me = useUserInfo().data;
  if (name) return <>{name}</>;
  if (!id) return <>-</>;
  if (me && String(me.id) === String(id)) return <>{me.relName}</>;
  return <>{t('alarms.resolverUser', { id })}</>;
}
