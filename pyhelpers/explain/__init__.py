"""Explanations: the rules instrumented to record which rule derived what (:mod:`.instrument`), the
derivation trees and why-not answers built from them (:mod:`.explainer`), and the readings that turn
atoms into English or Portuguese sentences from the vocabulary (:mod:`.readings`)."""
