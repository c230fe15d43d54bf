import type { Locale } from '@coldchain/contract';
import { useTranslation } from 'react-i18next';
import { changeLanguage } from '../../i18n';
import './login.css';

/**
 * English / 简体中文 on the login and the public pages, drawn without antd in the look of its small
 * Segmented control (login.css), since the login page loads no antd.
 */
export function LanguageSwitch() {
  const { t, i18n } = useTranslation();
  const current: Locale = i18n.language === 'zh-CN' ? 'zh-CN' : 'en';
  const options: { value: Locale; label: string }[] = [
    { value: 'en', label: t('common.english') },
    { value: 'zh-CN', label: t('common.chinese') },
  ];
  return (
    <fieldset aria-label={t('common.language')} className="cc-segmented" data-testid="login-language">
      {options.map((option) => (
        <button
          key={option.value}
          type="button"
          lang={option.value}
          aria-pressed={option.value === current}
          className="cc-segmented-item"
          onClick={() => void changeLanguage(option.value)}
        >
          {option.label}
        </button>
      ))}
    </fieldset>
  );
}
