import { serveTasks } from '../../lib/worker-task';
import { convertCcda, type CcdaConversion } from './ccda';

/**
 * The C-CDA worker thread (ccda-convert.ts sends the documents): the XML comes as text, the
 * Bundle goes back as text; a document it cannot read fails with its problem as the error's
 * code (CcdaError), which the pool hands back as it is.
 */
serveTasks<string, CcdaConversion>(async (xml) => ({ result: convertCcda(xml) }));
