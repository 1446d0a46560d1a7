import { configure } from '@testing-library/react';

// Pages render lazily (their module, the locale catalogs): on a busy machine a first render takes
// seconds, not a findBy's default one second. A test that waits for something that never comes
// still fails, only later.
configure({ asyncUtilTimeout: 15_000 });
