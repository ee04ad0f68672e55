/* SPDX-License-Identifier: GPL-2.0-or-later */
/* What the terminal can do (termcheck.h). */
#include <config.h>

#include <curses.h>
#include <term.h>
#include <unistd.h>

#include "view/termcheck.h"

bool termcheck_addressable(const char *term)
{
	TERMINAL *old = cur_term;
	int e = 0;

	if (setupterm(term, STDOUT_FILENO, &e) != OK)
		return true;
	const char *cup = tigetstr("cup");
	bool ok = cup && cup != (const char *)-1;
	del_curterm(cur_term);
	set_curterm(old);
	return ok;
}
