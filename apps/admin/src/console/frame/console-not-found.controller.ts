import { All } from '@nestjs/common';
import { ConsolePageError } from './console.errors.js';
import { ConsoleController } from './console-controller.js';
import { ConsolePage } from './console.guard.js';

/**
 * Any other path under the console: behind the same guard (someone not signed in is sent to the
 * sign-in, and learns nothing about which paths exist), then the console's "Page not found".
 * Registered after every page group.
 */
@ConsoleController('')
export class ConsoleNotFoundController {
  @All('*rest')
  @ConsolePage(null)
  notFound(): never {
    throw new ConsolePageError(404, 'Page not found', 'There is no such console page. Check the address, or start from the Overview.');
  }
}
