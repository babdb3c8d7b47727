from enum import StrEnum


class TemplateDocumentTextLayerBelowWeight(StrEnum):
    BOLD = "bold"
    REGULAR = "regular"

    def __str__(self) -> str:
        return str(self.value)
