from enum import StrEnum


class TemplateDocumentTextLayerWeight(StrEnum):
    BOLD = "bold"
    REGULAR = "regular"

    def __str__(self) -> str:
        return str(self.value)
