/** `npm run gen:client`: writes src/client/schema.ts from the OpenAPI document the app serves. */
import { writeFileSync } from 'node:fs';
import { relative } from 'node:path';
import { CLIENT_SCHEMA_FILE, clientSchemaText } from './client-schema.js';

const text = await clientSchemaText();
writeFileSync(CLIENT_SCHEMA_FILE, text);
console.log(`wrote ${relative(process.cwd(), CLIENT_SCHEMA_FILE)} (${text.split('\n').length} lines)`);
