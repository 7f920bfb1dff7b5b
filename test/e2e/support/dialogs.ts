// Quick-input steps the Workbench interface has no method for yet, reached through a webview's page:
// answering code-server's simple file dialog once its value has settled, closing it, and pressing a
// notification's button. They belong in the driver (see the panel engineer's report).
import type { Webview } from '../driver/workbench';

function quickInput(panel: Webview) {
  const page = panel.locator('body').page();
  return { page, input: page.locator('.quick-input-widget input.input').first() };
}

/**
 * Answers the file dialog with an absolute path. The driver's answerFileDialog presses Enter as soon as the
 * typed value shows, which loses the Enter while the dialog is still listing a different folder; this waits
 * until the dialog's value has settled before typing and before pressing Enter.
 */
export async function answerFileDialogSettled(panel: Webview, path: string): Promise<void> {
  const { page, input } = quickInput(panel);
  await input.waitFor({ state: 'visible', timeout: 30_000 });
  const settled = async (want?: string) => {
    let last = '',
      same = 0;
    for (let i = 0; i < 150 && same < 3; i++) {
      await page.waitForTimeout(200);
      const now = await input.inputValue();
      same = now === last && now !== '' && (want === undefined || now === want) ? same + 1 : 0;
      last = now;
    }
    if (same < 3) throw new Error(`the file dialog's path did not settle (it shows ${JSON.stringify(last)})`);
  };
  await settled();
  await input.fill(path);
  await settled(path);
  const dialog = await input.getAttribute('aria-label');
  await page.keyboard.press('Enter');
  // The dialog closes, or the same quick input widget moves on to the command's next question.
  await page.waitForFunction(
    (label) => {
      const el = document.querySelector<HTMLInputElement>('.quick-input-widget input.input');
      return !el || el.offsetParent === null || el.getAttribute('aria-label') !== label;
    },
    dialog,
    { timeout: 30_000 },
  );
}

/** Closes the file dialog (or any quick input) without choosing (Escape). */
export async function cancelQuickInput(panel: Webview): Promise<void> {
  const { page, input } = quickInput(panel);
  await input.waitFor({ state: 'visible', timeout: 30_000 });
  await page.keyboard.press('Escape');
  await input.waitFor({ state: 'hidden', timeout: 30_000 });
}

/**
 * Clicks a button of a notification toast and waits until the toast is gone. The Workbench driver reads
 * notifications but has no step that presses their buttons yet, so this reaches the page through a webview.
 */
export async function clickNotificationButton(panel: Webview, message: string, label: string): Promise<void> {
  const page = panel.locator('body').page();
  const toast = page.locator('.notifications-toasts .notification-list-item', { hasText: message }).first();
  await toast.waitFor({ timeout: 30_000 });
  // A click that lands while the toast is still sliding in can be lost (the toast stays, nothing ran): a click
  // that counts closes the toast, so only a toast still showing is clicked again.
  for (let attempt = 1; ; attempt++) {
    await toast.locator('.monaco-button', { hasText: new RegExp(`^${label}$`) }).click();
    try {
      await toast.waitFor({ state: 'hidden', timeout: 10_000 });
      return;
    } catch (e) {
      if (attempt >= 3) throw e;
    }
  }
}
