import { useId, useState, type ReactNode } from 'react';
import { boundValue, isChecked, resolveBinding, safeHttpUrl, withCheckbox, withValue, type ContentKitState } from './state.ts';
import { Button as KitButton, buttonClass } from '../../../ui/button.tsx';
import { AlertDialog } from '../../../ui/dialogs.tsx';
import { Tooltip } from '../../../ui/tooltip.tsx';
import { Checkbox as KitCheckbox } from '../../../ui/choices.tsx';
import { Select as KitSelect } from '../../../ui/select.tsx';

/*
 * ContentKit elements (the official @gitbook/api ContentKit* shapes) as React components. The tree comes from the
 * integration, so nothing is trusted: unknown elements are skipped, URLs must be http(s), text is text (no HTML),
 * and a depth limit keeps a hostile tree from exhausting the stack.
 */
type Node = Record<string, unknown>;
type Action = Record<string, unknown>;

export interface ElementContext {
  state: ContentKitState;
  setState: (next: ContentKitState) => void;
  /** Presses a button (or changes an input with `onValueChange`): the view routes the action. */
  act: (action: Action) => void;
  busy: boolean;
}

const MAX_DEPTH = 40;

export function ContentKitChildren({ nodes, ctx, depth = 0 }: { nodes: unknown; ctx: ElementContext; depth?: number }) {
  if (!Array.isArray(nodes) || depth > MAX_DEPTH) return null;
  return (
    <>
      {nodes.map((node, index) =>
        typeof node === 'string' ? <span key={index}>{node}</span> : <ContentKitElement key={index} node={node as Node} ctx={ctx} depth={depth + 1} />,
      )}
    </>
  );
}

export function ContentKitElement({ node, ctx, depth, label }: { node: Node; ctx: ElementContext; depth: number; label?: string }): ReactNode {
  if (!node || typeof node !== 'object' || depth > MAX_DEPTH) return null;
  const children = <ContentKitChildren nodes={node.children} ctx={ctx} depth={depth} />;
  switch (node.type) {
    case 'block':
    case 'configuration':
    case 'box':
      return <div className={`ck-${node.type}`}>{children}</div>;
    case 'vstack':
    case 'hstack':
      return <div className={`ck-${node.type} ck-align-${String(node.align ?? 'start')}`}>{children}</div>;
    case 'divider':
      return <hr className="ck-divider" />;
    case 'text':
      return <InlineText node={node} ctx={ctx} depth={depth} />;
    case 'link':
      return <Link node={node} />;
    case 'hint':
      return <p className="ck-hint">{children}</p>;
    case 'markdown':
      // Shown as its text: rendering an integration's markdown to HTML is not worth the trust it needs.
      return <p className="ck-markdown">{resolveBinding(node.content, ctx.state)}</p>;
    case 'codeblock':
      return <pre className="ck-codeblock"><code>{resolveBinding(node.content, ctx.state)}</code></pre>;
    case 'image': {
      const url = safeHttpUrl((node.source as Node | undefined)?.url);
      return url ? <a href={url} rel="noopener noreferrer">Image</a> : null;
    }
    case 'webframe': {
      // Frames load another host's page: the app loads nothing from another host, so it offers the link instead.
      const url = safeHttpUrl((node.source as Node | undefined)?.url);
      return url ? <p><a href={url} rel="noopener noreferrer">Open {new URL(url).host}</a></p> : null;
    }
    case 'card':
      return <Card node={node} ctx={ctx} depth={depth} />;
    case 'input':
      return <Input node={node} ctx={ctx} depth={depth} />;
    case 'button':
      return <Button node={node} ctx={ctx} label={label} />;
    case 'textinput':
      return <TextInput node={node} ctx={ctx} label={label} />;
    case 'select':
      return <Select node={node} ctx={ctx} label={label} />;
    case 'switch':
    case 'checkbox':
    case 'radio':
      return <Choice node={node} ctx={ctx} label={label} />;
    case 'stepper':
      return <Stepper node={node} ctx={ctx} depth={depth} />;
    case 'step':
      return <div className="ck-step">{node.title ? <h3>{String(node.title)}</h3> : null}{children}</div>;
    default:
      return null;
  }
}

function InlineText({ node, ctx, depth }: { node: Node; ctx: ElementContext; depth: number }) {
  const content = typeof node.children === 'string' ? node.children : <ContentKitChildren nodes={node.children} ctx={ctx} depth={depth} />;
  switch (node.style) {
    case 'bold':
      return <strong>{content}</strong>;
    case 'italic':
      return <em>{content}</em>;
    case 'code':
      return <code>{content}</code>;
    case 'strikethrough':
      return <s>{content}</s>;
    default:
      return <span className="ck-text">{content}</span>;
  }
}

function Link({ node }: { node: Node }) {
  const target = (node.target as Node | undefined)?.url;
  const url = safeHttpUrl(typeof target === 'string' ? target : target && typeof target === 'object' ? `https://${String((target as Node).host)}${String((target as Node).pathname ?? '/')}` : null);
  const text = Array.isArray(node.children) ? node.children.join('') : String(node.children ?? url ?? '');
  return url ? <a href={url} rel="noopener noreferrer">{text}</a> : <span>{text}</span>;
}

function Card({ node, ctx, depth }: { node: Node; ctx: ElementContext; depth: number }) {
  const hint = typeof node.hint === 'string' ? node.hint : null;
  return (
    <section className="ck-card" aria-label={typeof node.title === 'string' ? node.title : undefined}>
      {node.title ? <h3>{String(node.title)}</h3> : null}
      {hint ? <p className="ck-hint">{hint}</p> : Array.isArray(node.hint) ? <p className="ck-hint"><ContentKitChildren nodes={node.hint} ctx={ctx} depth={depth} /></p> : null}
      <ContentKitChildren nodes={node.children} ctx={ctx} depth={depth} />
      {Array.isArray(node.buttons) ? <div className="ck-hstack"><ContentKitChildren nodes={node.buttons} ctx={ctx} depth={depth} /></div> : null}
      {node.onPress ? <button type="button" className={buttonClass()} disabled={ctx.busy} onClick={() => ctx.act(node.onPress as Action)}>Open {String(node.title ?? '')}</button> : null}
    </section>
  );
}

/** A labelled field: the label names the element inside it (its accessible name). */
function Input({ node, ctx, depth }: { node: Node; ctx: ElementContext; depth: number }) {
  const hint = typeof node.hint === 'string' ? node.hint : null;
  return (
    <div className="field ck-input">
      <ContentKitElement node={node.element as Node} ctx={ctx} depth={depth + 1} label={String(node.label ?? '')} />
      {hint ? <small className="field-hint">{hint}</small> : null}
    </div>
  );
}

/** A ContentKit button; its `confirm` ({ title, text, confirm }) asks in the kit's AlertDialog before the action. */
function Button({ node, ctx, label }: { node: Node; ctx: ElementContext; label?: string | undefined }) {
  const [asking, setAsking] = useState(false);
  const text = String(node.label ?? label ?? node.tooltip ?? 'Continue');
  const variant = node.style === 'primary' ? 'primary' : node.style === 'danger' ? 'danger' : 'secondary';
  const confirm = node.confirm as Node | undefined;
  const press = () => {
    if (node.onPress) ctx.act(node.onPress as Action);
  };
  const button = (
    <KitButton variant={variant} disabled={ctx.busy || node.disabled === true} onClick={() => (confirm ? setAsking(true) : press())}>
      {text}
    </KitButton>
  );
  return (
    <>
      {typeof node.tooltip === 'string' ? <Tooltip content={node.tooltip}>{button}</Tooltip> : button}
      {confirm ? (
        <AlertDialog open={asking} onOpenChange={setAsking} title={String(confirm.title ?? text)} description={String(confirm.text ?? '')} confirm={String(confirm.confirm ?? text)} onConfirm={press} />
      ) : null}
    </>
  );
}

function TextInput({ node, ctx, label }: { node: Node; ctx: ElementContext; label?: string | undefined }) {
  const id = useId();
  const key = String(node.state);
  const value = boundValue(ctx.state, key, node.initialValue);
  const name = label || String(node.placeholder ?? key);
  const common = {
    id,
    value: typeof value === 'string' ? value : value === undefined || value === null ? '' : String(value),
    placeholder: typeof node.placeholder === 'string' ? node.placeholder : undefined,
    disabled: node.disabled === true,
    onChange: (event: { target: { value: string } }) => ctx.setState(withValue(ctx.state, key, event.target.value)),
  };
  return (
    <>
      <label htmlFor={id}>{name}</label>
      {node.multiline ? <textarea {...common} rows={4} /> : <input {...common} type={node.inputType === 'password' || node.inputType === 'email' ? node.inputType : 'text'} />}
    </>
  );
}

function Select({ node, ctx, label }: { node: Node; ctx: ElementContext; label?: string | undefined }) {
  const key = String(node.state);
  const options = Array.isArray(node.options) ? (node.options as Node[]) : [];
  const multiple = node.multiple === true;
  const value = boundValue(ctx.state, key, node.initialValue);
  const name = label || String(node.placeholder ?? key);
  const choose = (next: string | string[]) => {
    ctx.setState(withValue(ctx.state, key, next));
    if (node.onValueChange) ctx.act({ ...(node.onValueChange as Action), value: next });
  };
  if (!Array.isArray(node.options)) {
    // Options fetched from the integration's URL, or from the organization's OpenAPI specs: not offered here yet.
    return <p className="field-hint">{name}: this choice lists options from elsewhere, which this app does not load yet.</p>;
  }
  if (multiple) {
    // Several of a list: a checkbox each, in the group the select names.
    const chosen = Array.isArray(value) ? value.map(String) : [];
    return (
      <div role="group" aria-label={name} className="ck-select-many">
        <span className="ui-field-label">{name}</span>
        {options.map((option) => {
          const id = String(option.id);
          return (
            <KitCheckbox key={id} label={String(option.label ?? option.id)} disabled={node.disabled === true} checked={chosen.includes(id)}
              onCheckedChange={(on) => choose(on ? [...chosen, id] : chosen.filter((c) => c !== id))} />
          );
        })}
      </div>
    );
  }
  return (
    <KitSelect label={name} placeholder={String(node.placeholder ?? 'Choose…')} disabled={node.disabled === true} value={typeof value === 'string' && value ? value : undefined}
      onValueChange={choose} options={options.map((option) => ({ value: String(option.id), label: String(option.label ?? option.id) }))} />
  );
}

function Choice({ node, ctx, label }: { node: Node; ctx: ElementContext; label?: string | undefined }) {
  const id = useId();
  const key = String(node.state);
  const value = node.value as string | number;
  const checked = node.type === 'switch' ? boundValue(ctx.state, key, node.initialValue) === true : node.type === 'checkbox' ? isChecked(ctx.state, key, value) : ctx.state[key] === value;
  const [asking, setAsking] = useState<boolean | null>(null);
  const confirm = node.confirm as Node | undefined;
  const apply = (on: boolean) => {
    const next = node.type === 'switch' ? withValue(ctx.state, key, on) : node.type === 'checkbox' ? withCheckbox(ctx.state, key, value, on) : withValue(ctx.state, key, value);
    ctx.setState(next);
    if (node.onValueChange) ctx.act({ ...(node.onValueChange as Action), value: on });
  };
  // A choice with `confirm` changes once the person says so in the kit's AlertDialog.
  const change = (on: boolean) => (confirm ? setAsking(on) : apply(on));
  return (
    <span className="ck-choice">
      <input id={id} type={node.type === 'radio' ? 'radio' : 'checkbox'} role={node.type === 'switch' ? 'switch' : undefined} name={node.type === 'radio' ? key : undefined}
        checked={checked} disabled={node.disabled === true} onChange={(event) => change(event.target.checked)} />
      <label htmlFor={id}>{label || String(node.value ?? key)}</label>
      {confirm ? (
        <AlertDialog
          open={asking !== null}
          onOpenChange={(open) => open || setAsking(null)}
          title={String(confirm.title ?? label ?? '')}
          description={String(confirm.text ?? '')}
          confirm={String(confirm.confirm ?? 'Continue')}
          onConfirm={() => {
            if (asking !== null) apply(asking);
          }}
        />
      ) : null}
    </span>
  );
}

function Stepper({ node, ctx, depth }: { node: Node; ctx: ElementContext; depth: number }) {
  const steps = Array.isArray(node.children) ? (node.children as Node[]) : [];
  const index = Math.max(0, steps.findIndex((step) => step.id === node.activeStep));
  const step = steps[index];
  if (!step) return null;
  const last = index === steps.length - 1;
  return (
    <div className="ck-stepper">
      <p className="kind">Step {index + 1} of {steps.length}</p>
      <ContentKitElement node={step} ctx={ctx} depth={depth + 1} />
      <div className="ck-hstack">
        {index > 0 ? <button type="button" className={buttonClass()} disabled={ctx.busy} onClick={() => ctx.act({ ...(node.onStepChange as Action), step: steps[index - 1]!.id })}>Back</button> : null}
        <button type="button" className={buttonClass('primary')} disabled={ctx.busy || step.next === false}
          onClick={() => ctx.act(last ? (node.onComplete as Action) : { ...(node.onStepChange as Action), step: steps[index + 1]!.id })}>
          {last ? 'Finish' : 'Next'}
        </button>
      </div>
    </div>
  );
}
