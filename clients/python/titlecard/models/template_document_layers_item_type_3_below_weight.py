from enum import StrEnum


class TemplateDocumentLayersItemType3BelowWeight(StrEnum):
    BOLD = "bold"
    REGULAR = "regular"

    def __str__(self) -> str:
        return str(self.value)
