/**
 * The property typeahead of the staff job form: the agent types part of a postcode ("ls61ab",
 * "LS6 1") or of the address ("Hyde Park", "Flat 2") and picks from the matches of
 * GET /api/addresses?q= (lines 1 and 2, town and postcode, docs/tenants.md), asked 250 ms after
 * the last key press. A react-aria-components ComboBox: a labelled combobox with a listbox popup,
 * arrow keys and Enter, announced to screen readers.
 *
 * react-aria closes the list when the page scrolls under it (its position would be stale), which
 * happens as a phone's keyboard opens or as the agent scrolls to see the matches. The typed text is
 * kept when that happens (`allowsCustomValue`: closing no longer clears it) and the list opens again
 * when the matches arrive while the field has focus (`ReopenOnMatches`).
 */
import { useContext, useEffect, useState } from 'react';
import { ComboBox, ComboBoxStateContext, Input, Label, ListBox, ListBoxItem, Popover, Text } from 'react-aria-components';
import { api } from '../api.ts';
import type { Address } from '../types.ts';

/** "Flat 1, 12 Hyde Park Road, Leeds LS6 1AB". */
export function addressLabel(a: Pick<Address, 'line1' | 'line2' | 'town' | 'postcode'>): string {
  return `${[a.line2, a.line1, a.town].filter(Boolean).join(', ')} ${a.postcode}`;
}

/** Opens the combobox's list again when new matches arrive while the field has focus and the list is closed. */
function ReopenOnMatches({ matches }: { matches: Address[] }) {
  const state = useContext(ComboBoxStateContext);
  useEffect(() => {
    if (state && state.isFocused && !state.isOpen && matches.length > 0 && state.selectedKey == null) state.open(null, 'input');
    // Only new matches reopen the list; the state object changes on every render.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [matches]);
  return null;
}

/** The property combobox; `onChange` receives the chosen address, or null when the text is cleared. */
export function PropertyPicker({
  onChange,
  problem,
  label = 'Property',
  required = true,
  description = 'Type part of the postcode or the address, then pick the property.',
}: {
  onChange: (address: Address | null) => void;
  problem?: string | null;
  /** The field's label (default "Property"). */
  label?: string;
  /** Marked required (default true). */
  required?: boolean;
  description?: string;
}) {
  const [text, setText] = useState('');
  const [items, setItems] = useState<Address[]>([]);
  const [searching, setSearching] = useState(false);
  const [selected, setSelected] = useState<Address | null>(null);
  useEffect(() => {
    const q = text.trim();
    if (q.length < 2 || (selected && text === addressLabel(selected))) return;
    let live = true;
    setSearching(true);
    const timer = setTimeout(() => {
      api.GET('/api/addresses', { params: { query: { q, limit: 10 } } }).then(
        ({ data }) => {
          if (!live) return;
          setItems(data!.data);
          setSearching(false);
        },
        () => live && setSearching(false),
      );
    }, 250);
    return () => {
      live = false;
      clearTimeout(timer);
    };
  }, [text, selected]);
  return (
    <ComboBox
      className="field combo"
      items={items}
      inputValue={text}
      onInputChange={(value) => {
        setText(value);
        if (selected && value !== addressLabel(selected)) {
          setSelected(null);
          onChange(null);
        }
      }}
      onSelectionChange={(key) => {
        const address = items.find((a) => a.uuid === key) ?? null;
        setSelected(address);
        if (address) setText(addressLabel(address));
        onChange(address);
      }}
      menuTrigger="input"
      allowsEmptyCollection
      allowsCustomValue
      isRequired={required}
      isInvalid={Boolean(problem)}
    >
      <Label>
        {label}
        {required ? <span aria-hidden="true"> *</span> : null}
      </Label>
      <Input placeholder="Postcode or address" />
      <ReopenOnMatches matches={items} />
      <Text slot="description">{description}</Text>
      {problem ? <p className="field-error">{problem}</p> : null}
      <Popover className="combo-popover" placement="bottom start">
        <ListBox
          className="combo-list"
          renderEmptyState={() => <p className="combo-empty">{searching ? 'Searching…' : text.trim().length < 2 ? 'Type two or more characters.' : 'No property matches.'}</p>}
        >
          {(a: Address) => (
            <ListBoxItem id={a.uuid} textValue={addressLabel(a)} className="combo-option">
              {addressLabel(a)}
              {a.branch_name ? <span className="meta"> · {a.branch_name}</span> : null}
            </ListBoxItem>
          )}
        </ListBox>
      </Popover>
    </ComboBox>
  );
}
