import type { Locale } from '@coldchain/contract';
import { Segmented } from 'antd';
import { useTranslation } from 'react-i18next';
import { changeLanguage } from '../../i18n';

export function LanguageSwitch() {
  const { t, i18n } = useTranslation();
  return (
    <Segmented<Locale>
      data-testid="login-language"
      size="small"
      value={i18n.language === 'zh-CN' ? 'zh-CN' : 'en'}
      options={[
        { value: 'en', label: t('common.english') },
        { value: 'zh-CN', label: t('common.chinese') },
      ]}
      onChange={(value) => void changeLanguage(value)}
    />
  );
}
