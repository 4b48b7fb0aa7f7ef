/**
 * The API credentials: kept in VS Code's SecretStorage (the system keychain on desktop), never
 * in settings, files, logs or messages. Set through input boxes, or by a command's arguments
 * (tests, other extensions' automation).
 */
import * as vscode from 'vscode';
import type { Credentials } from '../../../server/src/core';

const KEYS = { token: 'rulesets.api.token', email: 'rulesets.api.email', key: 'rulesets.api.key' } as const;

/** Header values: printable ASCII without spaces, as the client sends them. */
const HEADER_SAFE = /^[\x21-\x7e]+$/;

function checkHeaderValue(value: string, what: string): string | undefined {
  if (value.trim() === '') return `Enter the ${what}.`;
  return HEADER_SAFE.test(value.trim()) ? undefined : `The ${what} has spaces or characters an HTTP header cannot carry.`;
}

/** An input box for one credential, checked as the client will send it. */
function askFor(title: string, prompt: string, what: string, password: boolean): Thenable<string | undefined> {
  return vscode.window.showInputBox({ title, prompt, password, ignoreFocusOut: true, validateInput: (value) => checkHeaderValue(value, what) });
}

export class CredentialStore {
  private readonly changed = new vscode.EventEmitter<void>();
  readonly onDidChange = this.changed.event;
  /** The secrets last read, so that log lines written without reading them are redacted too. */
  private known: string[] = [];
  private readonly subscription: vscode.Disposable;

  constructor(private readonly secrets: vscode.SecretStorage) {
    this.subscription = secrets.onDidChange((event) => {
      if ((Object.values(KEYS) as string[]).includes(event.key)) this.changed.fire();
    });
  }

  async get(): Promise<Credentials | undefined> {
    const [token, email, key] = await Promise.all([this.secrets.get(KEYS.token), this.secrets.get(KEYS.email), this.secrets.get(KEYS.key)]);
    this.known = [token, email, key].filter((s): s is string => !!s);
    if (token) return { token };
    if (email && key) return { email, key };
    return undefined;
  }

  /** Every secret stored (as last read), for redacting what the extension writes itself. */
  secretsToRedact(): readonly string[] {
    return this.known;
  }

  async setToken(token: string): Promise<void> {
    this.known = [...this.known, token];
    await this.secrets.store(KEYS.token, token);
    await Promise.all([this.secrets.delete(KEYS.email), this.secrets.delete(KEYS.key)]);
  }

  async setEmailAndKey(email: string, key: string): Promise<void> {
    this.known = [...this.known, email, key];
    await Promise.all([this.secrets.store(KEYS.email, email), this.secrets.store(KEYS.key, key)]);
    await this.secrets.delete(KEYS.token);
  }

  async clear(): Promise<void> {
    await Promise.all(Object.values(KEYS).map((key) => this.secrets.delete(key)));
  }

  dispose(): void {
    this.subscription.dispose();
    this.changed.dispose();
  }
}

/** `Rulesets: Set API Token`; `{token}` sets it without asking. Resolves whether one was stored. */
export async function setApiToken(store: CredentialStore, args: { token?: string } = {}): Promise<boolean> {
  const token = args.token ?? (await askFor('Rulesets: Set API Token', "An API token with permission to edit rulesets. It is kept in VS Code's secret storage, never in settings.", 'API token', true));
  if (token === undefined) return false;
  const problem = checkHeaderValue(token, 'API token');
  if (problem) throw new Error(problem);
  await store.setToken(token.trim());
  void vscode.window.showInformationMessage('Rulesets: the API token is stored in VS Code\'s secret storage.');
  return true;
}

/** `Rulesets: Set API Email and Key`; `{email, key}` sets them without asking. */
export async function setApiEmailAndKey(store: CredentialStore, args: { email?: string; key?: string } = {}): Promise<boolean> {
  const email = args.email ?? (await askFor('Rulesets: Set API Email and Key (1/2)', 'The email address of the account (sent as X-Auth-Email).', 'email address', false));
  if (email === undefined) return false;
  const key = args.key ?? (await askFor('Rulesets: Set API Email and Key (2/2)', "The global API key (sent as X-Auth-Key). It is kept in VS Code's secret storage, never in settings.", 'API key', true));
  if (key === undefined) return false;
  const problem = checkHeaderValue(email, 'email address') ?? checkHeaderValue(key, 'API key');
  if (problem) throw new Error(problem);
  await store.setEmailAndKey(email.trim(), key.trim());
  void vscode.window.showInformationMessage('Rulesets: the API email and key are stored in VS Code\'s secret storage.');
  return true;
}

/** `Rulesets: Clear Credentials`. */
export async function clearCredentials(store: CredentialStore): Promise<void> {
  await store.clear();
  void vscode.window.showInformationMessage('Rulesets: the API credentials are removed from VS Code\'s secret storage.');
}
