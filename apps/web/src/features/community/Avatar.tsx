import type { Avatar as AvatarImage, Role } from '@kathamala/domain';
import { useI18n } from '../../i18n/index.tsx';
import { textLang } from '../stories/lang.ts';
import styles from './community.module.css';

/** A person's picture, or the first letter of their name on a coloured disc when they have none. */
export function Avatar(props: {
  name: string;
  avatar: AvatarImage | null;
  size?: 'small' | 'large';
  /** Decorative next to the name (alt=""), described when alone. */
  described?: boolean;
}) {
  const { t } = useI18n();
  const cls = props.size === 'large' ? styles.avatarLarge : styles.avatar;
  if (props.avatar)
    return (
      <img
        className={cls}
        src={props.avatar.src}
        srcSet={props.avatar.srcset}
        sizes={props.size === 'large' ? '96px' : '40px'}
        alt={props.described ? t('profile.avatarAlt', { name: props.name }) : ''}
        loading="lazy"
        decoding="async"
      />
    );
  const letter = Array.from(props.name.trim())[0]?.toUpperCase() ?? '?';
  return (
    <span className={cls} aria-hidden="true" lang={textLang(letter)}>
      {letter}
    </span>
  );
}

/** The role badge beside a name; readers carry none. */
export function RoleBadge({ role }: { role: Role }) {
  const { t } = useI18n();
  if (role === 'reader') return null;
  return <span className={styles.role}>{t(`role.${role}`)}</span>;
}
