/** A page of a list as the operator API answers it. */
export interface Paged<T> {
  items: T[];
  total: number;
  page: number;
  limit: number;
}

export const PAGE_SIZE = 20;
