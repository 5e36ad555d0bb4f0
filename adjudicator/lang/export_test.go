package lang

// RuleRefs is ruleRefs, for the tests of package lang_test.
var RuleRefs = ruleRefs
