import { useEffect, useState } from 'react';
import type * as MathModuleType from '../../../src/features/reader/math.ts';

type MathModule = typeof MathModuleType;

/*
 * temml (TeX to MathML, the reader's math.ts) is some 60 KB gzipped: it is imported when a formula is first
 * shown, its own chunk, so pages and an editor without math never load it.
 */
let loaded: MathModule | undefined;
let loading: Promise<MathModule> | undefined;

function loadMath(): Promise<MathModule> {
  loading ??= import('../../../src/features/reader/math.ts').then(
    (module) => (loaded = module),
    (error: unknown) => {
      // Offline: asked again by the next formula shown.
      loading = undefined;
      throw error;
    },
  );
  return loading;
}

/**
 * A formula as the reader draws it: its MathML, null when it does not parse (its source is shown, as the reader
 * shows it), undefined while temml loads.
 */
export function useMathMl(formula: string, display: boolean): string | null | undefined {
  const [ready, setReady] = useState(() => loaded !== undefined);
  useEffect(() => {
    if (ready) return;
    let current = true;
    loadMath().then(
      () => current && setReady(true),
      () => undefined,
    );
    return () => {
      current = false;
    };
  }, [ready]);
  return ready && loaded ? loaded.formulaToMathMl(formula, display) : undefined;
}
