import styles from './Skeleton.module.css';

/** Grey placeholder lines while something loads; hidden from assistive technology. */
export function SkeletonLines(props: { lines?: number; label?: string }) {
  const lines = props.lines ?? 3;
  return (
    <div className={styles.lines} aria-busy="true" role={props.label ? 'status' : undefined}>
      {props.label && <span className="visually-hidden">{props.label}</span>}
      {Array.from({ length: lines }, (_, i) => (
        <span key={i} className={styles.line} aria-hidden="true" />
      ))}
    </div>
  );
}

export function SkeletonBlock(props: { className?: string }) {
  return <span className={`${styles.block} ${props.className ?? ''}`} aria-hidden="true" />;
}
