export {
  SPECULATION_RULES_PATH,
  SPECULATION_RULES_TYPE,
  speculationRules,
  speculationRulesFor,
} from './speculation-rules'
