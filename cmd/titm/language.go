package main

import (
	"flag"
	"fmt"

	"titm/adjudicator/lang"
)

// addLanguageFlag adds --language to a command that prints a player's
// texts; dflt says, for its help, which language it prints without it.
func addLanguageFlag(fs *flag.FlagSet, dflt string) *string {
	return fs.String("language", "", "the language of the player's texts: en (English) or ja (Japanese) (default: "+dflt+")")
}

// languageCode is the code of the language --language names, or "" when
// it is not given: the command's own default then.
func languageCode(v string) (string, error) {
	if v == "" {
		return "", nil
	}
	code, err := lang.Parse(v)
	if err != nil {
		return "", usageError{fmt.Sprintf("--language %q: the languages are en (English) and ja (Japanese)", v)}
	}
	return code, nil
}

// languagePrinter is the printer of the language --language names,
// English when it is not given.
func languagePrinter(v string) (*lang.Printer, error) {
	code, err := languageCode(v)
	if err != nil {
		return nil, err
	}
	if code == "" {
		code = lang.English
	}
	return lang.For(code), nil
}
