import { coverSizeUrl, coverSrcSet } from '@kathamala/domain';
import { useConfig } from '../config.tsx';
import styles from './Cover.module.css';

/** A story cover (2:3) from the images host; lazy unless it is in the first screen. */
export function Cover(props: {
  storyId: number;
  alt: string;
  width: number;
  eager?: boolean;
  className?: string;
  /** The `sizes` attribute when the styles show the cover at other widths than `width`. */
  sizes?: string;
}) {
  const { imagesHost } = useConfig();
  const height = Math.round((props.width * 3) / 2);
  return (
    <img
      className={`${styles.cover} ${props.className ?? ''}`}
      src={coverSizeUrl(imagesHost, props.storyId, 320)}
      srcSet={coverSrcSet(imagesHost, props.storyId)}
      sizes={props.sizes ?? `${props.width}px`}
      alt={props.alt}
      width={props.width}
      height={height}
      loading={props.eager ? 'eager' : 'lazy'}
      fetchPriority={props.eager ? 'high' : undefined}
      decoding="async"
    />
  );
}
