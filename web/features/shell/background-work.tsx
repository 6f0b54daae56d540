import { hashKey, useQuery, type QueryKey } from '@tanstack/react-query';
import { useEffect, useRef, useSyncExternalStore } from 'react';
import { useNavigate } from 'react-router';
import { useToast, type ToastTone } from '../../ui/toast.tsx';

/*
 * Work the server does in the background (an import run, …), followed wherever the person goes next: the shell
 * polls it while it runs and says how it ended in a toast, with a button to what it made. A screen that started
 * it shows it too, through the same query (one request for both).
 */

export interface WorkOutcome {
  title: string;
  description?: string;
  tone: ToastTone;
  /** Where the button goes ("Open Handbook"). */
  open?: { label: string; to: string };
}

export interface WatchedWork<T = unknown> {
  queryKey: QueryKey;
  read: (signal: AbortSignal) => Promise<T>;
  /** How it ended, or null while it runs. */
  outcome: (value: T) => WorkOutcome | null;
}

const POLL_MS = 1000;
let watched: WatchedWork[] = [];
const listeners = new Set<() => void>();
const changed = () => listeners.forEach((listener) => listener());

/** Follows the work until it ends; the same work (same key, as TanStack Query compares keys) is followed once. */
export function watchWork<T>(work: WatchedWork<T>): void {
  const key = hashKey(work.queryKey);
  if (watched.some((w) => hashKey(w.queryKey) === key)) return;
  watched = [...watched, work as WatchedWork];
  changed();
}

function forget(work: WatchedWork): void {
  watched = watched.filter((w) => w !== work);
  changed();
}

const subscribe = (listener: () => void) => {
  listeners.add(listener);
  return () => listeners.delete(listener);
};

/** In the shell: one poller per piece of work followed. */
export function BackgroundWork() {
  const list = useSyncExternalStore(subscribe, () => watched);
  return (
    <>
      {list.map((work) => (
        <Follow key={hashKey(work.queryKey)} work={work} />
      ))}
    </>
  );
}

function Follow({ work }: { work: WatchedWork }) {
  const toast = useToast();
  const navigate = useNavigate();
  const query = useQuery({
    queryKey: work.queryKey,
    queryFn: ({ signal }) => work.read(signal),
    refetchInterval: (q) => (q.state.data !== undefined && work.outcome(q.state.data) ? false : POLL_MS),
  });
  const ended = query.data !== undefined ? work.outcome(query.data) : null;
  const told = useRef(false);
  useEffect(() => {
    if (!ended || told.current) return;
    told.current = true;
    forget(work);
    const { open } = ended;
    toast({
      title: ended.title,
      description: ended.description,
      tone: ended.tone,
      ...(open ? { action: { label: open.label, altText: `${open.label} from the sidebar`, onClick: () => void navigate(open.to) } } : {}),
    });
  }, [ended, work, toast, navigate]);
  return null;
}
