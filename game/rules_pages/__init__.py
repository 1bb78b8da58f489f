"""The rules pages (/rules/…): content (the words), views and URLs."""
