/**
 * The Terraform reader's parser (tree-sitter's HCL grammar, compiled to WebAssembly) is
 * loaded once, asynchronously, before any `.tf` document can be read. The server starts the
 * load when it starts and never waits for it on a JSON or YAML document: only Terraform
 * documents wait, and only until the first load has finished.
 */
import { loadTerraformParser } from '../core';


export class TerraformParser {
  private loading?: Promise<boolean>;
  private state: 'idle' | 'loading' | 'ready' | 'failed' = 'idle';

  constructor(private readonly onError: (message: string) => void) {}

  /** Starts the load (once); resolves true when the parser is there to read `.tf` documents. */
  load(): Promise<boolean> {
    if (!this.loading) {
      this.state = 'loading';
      this.loading = loadTerraformParser().then(
        () => {
          this.state = 'ready';
          return true;
        },
        (error: unknown) => {
          this.state = 'failed';
          // Terraform documents then get nothing from the server; every other document is unaffected.
          this.onError(`the Terraform parser did not load, so .tf files are not checked: ${error instanceof Error ? error.message : String(error)}`);
          return false;
        },
      );
    }
    return this.loading;
  }

  /** Whether `.tf` documents can be read now, without waiting. */
  get ready(): boolean {
    return this.state === 'ready';
  }
}
