import { inject } from 'vitest'
import { useDatabaseTemplate } from '../../support/test-app.js'

// Every API test file's apps start from the run's template database (template-database.ts).
useDatabaseTemplate(inject('databaseTemplate'))
