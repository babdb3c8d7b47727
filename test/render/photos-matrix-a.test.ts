/** The photo matrix (test/support/photo-matrix.ts), the first five photographs. */
import { BACKGROUNDS, photoMatrix } from '../support/photo-matrix.js';

photoMatrix(BACKGROUNDS.slice(0, 5));
