/**
 * The one confirmation dialog of the console, opened by ui.tsx's `useConfirm` (which loads this
 * module the first time a page asks): an alertdialog on react-aria's Modal, so focus moves into it
 * and stays there and Escape backs out; an optional text box (a reason) and amount (pounds, passed
 * on in pence).
 */
import { useEffect, useState } from 'react';
import { Dialog, Heading, Modal, ModalOverlay } from 'react-aria-components';
import { poundsToPence } from './logic/money.ts';
import { Button, type ConfirmRequest } from './ui.tsx';

/**
 * The dialog of `request` (closed when null); `onClose` is called when it is confirmed or backed out of.
 * @param request what to ask (ui.tsx ConfirmRequest)
 * @param onClose closes the dialog
 */
export function ConfirmDialog({ request, onClose }: { request: ConfirmRequest | null; onClose: () => void }) {
  const [text, setText] = useState('');
  const [missing, setMissing] = useState(false);
  const [amount, setAmount] = useState('');
  const [badAmount, setBadAmount] = useState(false);
  useEffect(() => {
    setText(request?.text?.initial ?? '');
    setAmount(request?.amount?.initial ?? '');
    setMissing(false);
    setBadAmount(false);
  }, [request]);
  const confirm = () => {
    if (!request) return;
    const pence = request.amount ? poundsToPence(amount) : null;
    const noText = Boolean(request.text?.required && !text.trim());
    const noAmount = Boolean(request.amount && (pence === null || pence <= 0));
    setMissing(noText);
    setBadAmount(noAmount);
    if (noText || noAmount) return;
    onClose();
    request.onConfirm(text.trim(), pence);
  };
  return (
    <ModalOverlay className="modal-overlay" isOpen={request !== null} onOpenChange={(open) => !open && onClose()} isDismissable>
      <Modal className="modal">
        <Dialog role="alertdialog" className="confirm">
          <Heading slot="title">{request?.title}</Heading>
          {request?.body ? <div className="confirm-body">{request.body}</div> : null}
          {request?.amount ? (
            <div className="field">
              <label htmlFor="confirm-amount">
                {request.amount.label}
                <span aria-hidden="true"> *</span>
              </label>
              <input
                id="confirm-amount"
                inputMode="decimal"
                value={amount}
                required
                aria-invalid={badAmount || undefined}
                aria-describedby={badAmount ? 'confirm-amount-error' : undefined}
                onChange={(e) => setAmount(e.target.value)}
              />
              {badAmount ? (
                <p id="confirm-amount-error" className="field-error">
                  Enter an amount in pounds, such as 79.50.
                </p>
              ) : null}
            </div>
          ) : null}
          {request?.text ? (
            <div className="field">
              <label htmlFor="confirm-text">
                {request.text.label}
                {request.text.required ? <span aria-hidden="true"> *</span> : null}
              </label>
              <textarea
                id="confirm-text"
                rows={3}
                maxLength={1000}
                value={text}
                required={request.text.required}
                aria-invalid={missing || undefined}
                aria-describedby={missing ? 'confirm-text-error' : undefined}
                onChange={(e) => setText(e.target.value)}
              />
              {missing ? (
                <p id="confirm-text-error" className="field-error">
                  Please fill this in.
                </p>
              ) : null}
            </div>
          ) : null}
          <div className="button-row">
            <Button variant={request?.danger ? 'danger' : 'primary'} onPress={confirm}>
              {request?.confirmLabel}
            </Button>
            <Button variant="secondary" autoFocus onPress={onClose}>
              {request?.cancelLabel ?? 'Go back'}
            </Button>
          </div>
        </Dialog>
      </Modal>
    </ModalOverlay>
  );
}
