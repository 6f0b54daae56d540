#!/bin/sh
# Every page of the corpus opened in the page view and in the editor, compared (the test file takes a subset a run,
# drawn from the day: see its head). About five minutes on two cores. Run from the checkout's root.
WYSIWYG_PAGES=all exec node --import tsx --test "$@" web/features/editing/wysiwyg-corpus.browser.test.ts
