package referee

import "titm/rules"

// What titm orders check prints around the orders it checks, in the
// reader's language: the count of errors under them, and a TOKEN line,
// whose secret it never shows.

// CheckRefused says, under the errors of orders checked, that the referee
// would apply nothing of them, as it refuses a mail with errors.
func CheckRefused(n int) rules.Message {
	return rules.M("%d error(s): nothing would be applied", n)
}

// CheckToken is how orders checked show their TOKEN line: given, and not
// shown.
func CheckToken() rules.Message { return rules.M("TOKEN (given, not shown)") }
