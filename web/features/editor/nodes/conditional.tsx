import { useEffect, useState, type FormEvent } from 'react';
import { NodeViewContent, NodeViewWrapper, type NodeViewProps } from '@tiptap/react';
import { faEye, faPen } from '@fortawesome/free-solid-svg-icons';
import { checkCondition } from '../../../../src/features/adaptive/conditions.ts';
import { Button, IconButton } from '../../../ui/button.tsx';
import { Icon } from '../../../ui/icon.tsx';
import { Popover } from '../../../ui/popover.tsx';
import { Select } from '../../../ui/select.tsx';
import { TextField } from '../../../ui/text-field.tsx';
import { spaceClaims } from '../site-claims.ts';
import { blockOf, setData } from './block-data.ts';
import { comparisonOf, conditionField, describeCondition, OPERATORS, valueFor, writeComparison, type Claim, type Comparison, type Operator } from './conditions.ts';

/*
 * GitBook's conditional content: its blocks edited in place, in a frame whose header says who sees them
 * ("Shown when: plan is pro", or the expression as it is). The header's button opens the kit's popover where the
 * condition is set: a claim of the adaptive schemas of the sites publishing the space, an operator and a value,
 * and the raw expression for anything else (the only field when no site has a schema). The rules are in conditions.ts.
 */

const claimName = (path: string) => path.replace(/^visitor\.claims\./, '');

/** The value a claim starts with when it is picked: true, its first listed value, or nothing yet. */
const firstValue = (claim: Claim): Comparison['value'] => (claim.type === 'boolean' ? true : claim.options?.[0] ?? '');

function ValueField({ claim, comparison, onChange }: { claim: Claim | undefined; comparison: Comparison | null; onChange(value: Comparison['value']): void }) {
  const value = comparison && claim ? String(comparison.value) : '';
  const choices = claim?.type === 'boolean' ? ['true', 'false'] : claim?.options;
  if (choices) return <Select label="Value" size="sm" options={choices.map((v) => ({ value: v, label: v }))} value={value || undefined} onValueChange={(v) => onChange(valueFor(claim, v))} />;
  return <TextField label="Value" value={value} disabled={!claim} inputMode={claim?.type === 'number' ? 'decimal' : undefined} onChange={(e) => onChange(valueFor(claim, e.target.value))} />;
}

function ConditionForm({ spaceId, expression, onSave }: { spaceId: string; expression: string; onSave(expression: string): void }) {
  const [raw, setRaw] = useState(expression);
  const [claims, setClaims] = useState<Claim[]>();
  useEffect(() => {
    const asked = new AbortController();
    spaceClaims(spaceId, asked.signal).then(setClaims, () => !asked.signal.aborted && setClaims([]));
    return () => asked.abort();
  }, [spaceId]);
  const comparison = comparisonOf(raw);
  const claim = claims?.find((c) => c.path === comparison?.path);
  const check = raw.trim() === '' ? { ok: true as const } : checkCondition(raw.trim(), 'Expression');
  const write = (next: Partial<Comparison>) => {
    if (claim && comparison) setRaw(writeComparison({ ...comparison, ...next }));
  };
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (check.ok) onSave(raw.trim());
  };
  return (
    <form className="qe-condition-form" onSubmit={submit}>
      {claims === undefined ? (
        <p className="qe-condition-note" role="status">Reading the claims of the sites that publish this space…</p>
      ) : claims.length === 0 ? (
        <p className="qe-condition-note">No site publishing this space has an adaptive schema: write the condition as an expression.</p>
      ) : (
        <div className="qe-condition-fields">
          <Select
            label="Claim"
            size="sm"
            placeholder="Choose a claim"
            options={claims.map((c) => ({ value: c.path, label: claimName(c.path) }))}
            value={claim?.path}
            onValueChange={(path) => {
              const picked = claims.find((c) => c.path === path)!;
              setRaw(writeComparison({ path, operator: comparison?.operator ?? '==', value: firstValue(picked) }));
            }}
          />
          <Select<Operator> label="Operator" size="sm" options={OPERATORS} value={claim ? comparison!.operator : undefined} disabled={!claim} onValueChange={(operator) => write({ operator })} />
          <ValueField claim={claim} comparison={comparison} onChange={(value) => write({ value })} />
        </div>
      )}
      <TextField
        label="Expression"
        value={raw}
        spellCheck={false}
        className="qe-condition-expression"
        placeholder="visitor.claims.unsigned.beta == true"
        hint="Any adaptive-content expression; empty shows the content to every visitor."
        error={check.ok ? undefined : check.message}
        onChange={(e) => setRaw(e.target.value)}
      />
      <div className="qe-condition-actions">
        <Button type="submit" size="sm" variant="primary" disabled={!check.ok}>Save condition</Button>
      </div>
    </form>
  );
}

export function ConditionalView(props: NodeViewProps & { spaceId: string }) {
  const data = blockOf(props).data ?? {};
  const field = conditionField(data);
  const expression = typeof data[field] === 'string' ? data[field] : '';
  const simple = expression.trim() === '' || comparisonOf(expression) !== null;
  const [open, setOpen] = useState(false);
  return (
    <NodeViewWrapper as="div" className="qe-conditional" data-quire="conditional" role="group" aria-label="Conditional content">
      <div className="qe-conditional-header" contentEditable={false}>
        <Icon icon={faEye} />
        <span className="qe-conditional-label">
          Shown when: {simple ? describeCondition(expression) : <code>{expression}</code>}
        </span>
        {props.editor.isEditable && (
          <Popover open={open} onOpenChange={setOpen} label="Condition" align="end" trigger={<IconButton size="sm" icon={faPen} label="Edit the condition" />}>
            {open && (
              <ConditionForm
                spaceId={props.spaceId}
                expression={expression}
                onSave={(next) => {
                  setData(props, { [field]: next });
                  setOpen(false);
                }}
              />
            )}
          </Popover>
        )}
      </div>
      <NodeViewContent as="div" className="qe-conditional-body" />
    </NodeViewWrapper>
  );
}
